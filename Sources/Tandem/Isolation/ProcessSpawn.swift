import Glibc

/// Starts `executable` with `arguments` and `environment` ("NAME=value" entries) by posix_spawn
/// with `actions`: every signal at its default handling and none blocked, whatever the calling
/// thread had, and in a process group of its own when asked. Returns the child's pid, or the
/// error number posix_spawn gave. The one spawn of the package: the isolated backends' children
/// (`ChildProcess`) and the tests' (`TestProcess`) start through it.
package func spawnProcess(
    _ executable: String, _ arguments: [String], environment: [String],
    actions: UnsafePointer<posix_spawn_file_actions_t>, ownProcessGroup: Bool
) -> Result<pid_t, SpawnError> {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t(), empty = sigset_t()
    sigfillset(&defaults)
    sigemptyset(&empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
    if ownProcessGroup {
        posix_spawnattr_setpgroup(&attributes, 0)
        flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([executable] + arguments).map { strdup($0) }
    let envp = environment.map { strdup($0) }
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, actions, &attributes, argv + [nil], envp + [nil])
    return status == 0 ? .success(pid) : .failure(SpawnError(number: status))
}

/// posix_spawn's error number and its text.
package struct SpawnError: Error, CustomStringConvertible {
    package let number: Int32
    package var description: String { errnoText(number) }
}
