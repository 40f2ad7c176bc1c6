/// `tandem quote …`: the quote library (README "The quote library").
enum QuoteCommands {
    static let entry = CommandRegistry.Entry(group: "quote", summary: "the quote library: check, generate, add, import, list, search, save, favorite, today", [
        CommandRegistry.Entry(QuoteCheckCommand.self), CommandRegistry.Entry(QuoteGenerateCommand.self),
        CommandRegistry.Entry(QuoteAddCommand.self), CommandRegistry.Entry(QuoteImportCommand.self),
        CommandRegistry.Entry(QuoteListCommand.self), CommandRegistry.Entry(QuoteSearchCommand.self),
        CommandRegistry.Entry(QuoteMarkCommand<SaveMark>.self), CommandRegistry.Entry(QuoteMarkCommand<FavoriteMark>.self),
        CommandRegistry.Entry(QuoteTodayCommand.self),
    ])
}
