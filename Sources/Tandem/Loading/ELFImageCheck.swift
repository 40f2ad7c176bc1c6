import CLTDL
import Glibc

/// Checks that a file is a complete ELF shared object for this machine before anything maps it.
///
/// The system loader trusts the headers: a truncated `.so` is mapped past its end and the host
/// dies with SIGBUS, which no error check catches. So the header, the program and section header
/// tables, and every loadable segment must lie inside the file.
enum ELFImageCheck {
    #if arch(x86_64)
    static let hostMachine = UInt16(EM_X86_64)
    #elseif arch(arm64)
    static let hostMachine = UInt16(EM_AARCH64)
    #else
    #error("add this architecture's ELF machine number")
    #endif

    static func check(_ path: String) throws(PluginRejection) {
        func reject(_ code: PluginRejection.Code, _ message: String) -> PluginRejection {
            PluginRejection(code, path: path, message)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw reject(.unreadable, "cannot open: \(errnoText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw reject(.unreadable, "cannot stat: \(errnoText())") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw reject(.notELF, "not a regular file") }
        let size = UInt64(info.st_size)
        guard size > 0 else { throw reject(.emptyFile, "the file is empty (0 bytes)") }

        var header = Elf64_Ehdr()
        let headerSize = MemoryLayout<Elf64_Ehdr>.size
        let got = withUnsafeMutableBytes(of: &header) { pread(fd, $0.baseAddress, headerSize, 0) }
        guard got >= 0 else { throw reject(.unreadable, "cannot read: \(errnoText())") }
        let ident = withUnsafeBytes(of: header.e_ident) { Array($0) }
        guard got >= 4, ident[0] == 0x7F, ident[1] == UInt8(ascii: "E"), ident[2] == UInt8(ascii: "L"), ident[3] == UInt8(ascii: "F") else {
            throw reject(.notELF, "not an ELF file (no ELF magic in the first bytes)")
        }
        guard got == headerSize else {
            throw reject(.truncated, "\(size) bytes, shorter than the \(headerSize)-byte ELF header")
        }
        guard ident[Int(EI_CLASS)] == UInt8(ELFCLASS64) else {
            throw reject(.wrongArchitecture, "ELF class \(ident[Int(EI_CLASS)]) is not 64-bit")
        }
        guard ident[Int(EI_DATA)] == UInt8(ELFDATA2LSB) else {
            throw reject(.wrongArchitecture, "ELF byte order \(ident[Int(EI_DATA)]) is not little-endian")
        }
        guard header.e_type == UInt16(ET_DYN) else {
            throw reject(.notSharedObject, "ELF type \(header.e_type) is not a shared object (ET_DYN)")
        }
        guard header.e_machine == hostMachine else {
            throw reject(.wrongArchitecture, "ELF machine \(header.e_machine) is not this host's (\(hostMachine))")
        }

        let programHeaderSize = MemoryLayout<Elf64_Phdr>.size
        if header.e_phnum > 0 {
            guard Int(header.e_phentsize) == programHeaderSize else {
                throw reject(.truncated, "program header entry size \(header.e_phentsize) is not \(programHeaderSize)")
            }
        }
        try requireInside(header.e_phoff, count: header.e_phnum, entrySize: header.e_phentsize, size: size, "program header table", reject)
        try requireInside(header.e_shoff, count: header.e_shnum, entrySize: header.e_shentsize, size: size, "section header table", reject)

        for index in 0..<Int(header.e_phnum) {
            var segment = Elf64_Phdr()
            let offset = off_t(header.e_phoff) + off_t(index * programHeaderSize)
            let read = withUnsafeMutableBytes(of: &segment) { pread(fd, $0.baseAddress, programHeaderSize, offset) }
            guard read == programHeaderSize else { throw reject(.truncated, "program header \(index) cannot be read") }
            guard segment.p_type == UInt32(PT_LOAD) || segment.p_type == UInt32(PT_DYNAMIC) else { continue }
            let (end, overflow) = segment.p_offset.addingReportingOverflow(segment.p_filesz)
            guard !overflow, end <= size else {
                throw reject(.truncated, "segment \(index) ends at byte \(end) but the file has \(size) bytes")
            }
        }
    }

    private static func requireInside(
        _ offset: UInt64, count: UInt16, entrySize: UInt16, size: UInt64, _ what: String,
        _ reject: (PluginRejection.Code, String) -> PluginRejection
    ) throws(PluginRejection) {
        guard count > 0 else { return }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(count) * UInt64(entrySize))
        guard !overflow, end <= size else {
            throw reject(.truncated, "the \(what) ends at byte \(end) but the file has \(size) bytes")
        }
    }
}
