import Foundation

// Thin: everything is in CommandRegistry and the commands.
let exitCode = await CommandRegistry.main(Array(CommandLine.arguments.dropFirst()))
exit(exitCode.rawValue)
