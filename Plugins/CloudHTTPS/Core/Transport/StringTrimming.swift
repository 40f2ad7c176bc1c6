extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends ("\r\n" is one Character, so
    /// this works on scalars).
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        while let first = scalars.first, blank(first) { scalars.removeFirst() }
        while let last = scalars.last, blank(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
