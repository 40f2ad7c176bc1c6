/// The languages the gates, clichés and language identifier cover.
public enum SupportedLocale {
    public static let languages: Set<String> = ["en", "de", "es", "fr", "it", "pt"]

    /// The language part of a locale ("pt-BR" → "pt", "de_AT" → "de"), lower-cased.
    public static func language(of locale: String) -> String {
        String(locale.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
    }

    public static func isSupported(_ locale: String) -> Bool { languages.contains(language(of: locale)) }
}
