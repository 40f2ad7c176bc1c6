import Foundation

// tandem-llama: the local runner's companion tool, built from the same engine as the plugin.
let usage = """
    usage: tandem-llama inspect FILE
           tandem-llama tokenize FILE TEXT [--bos] [--json]
           tandem-llama complete FILE (--prompt-ids IDS | --prompt TEXT | --chat TEXT) -n N [--greedy | --temp T --top-k K --top-p P --seed S] [--stop TEXT] [--top-probs K] [-t THREADS] [-c CTX] [--json]
           tandem-llama score FILE --ids IDS [--top K] [--logits-out F.f32] [-t THREADS] --json
           tandem-llama bench FILE [-t THREADS] [-p 128] [-n 128] [-r RUNS] [--json]
           tandem-llama embed-bench FILE [-t THREADS] [-w WORDS] [-s SENTENCES] [-r RUNS] [-b TOKENS] [-p PREFIX] [--json]
           tandem-llama token-states FILE OUT [-t THREADS] < TEXTS
           tandem-llama fuzz [--cases N] [--seconds S] [--jobs J] [--seed FIRST] [--forward-every K] [--hang-ms MS]
           tandem-llama fuzz --replay SEED [--forward]
    """

var argv = Array(CommandLine.arguments.dropFirst())
guard let command = argv.first else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
var args = Arguments(Array(argv.dropFirst()))
do {
    switch command {
    case "inspect": try InspectCommand.run(&args)
    case "score": try ScoreCommand.run(&args)
    case "bench": try BenchCommand.run(&args)
    case "embed-bench": try EmbedBenchCommand.run(&args)
    case "token-states": try TokenStatesCommand.run(&args)
    case "complete": try CompleteCommand.run(&args)
    case "tokenize": try TokenizeCommand.run(&args)
    case "fuzz": try FuzzCommand.run(&args)
    default: throw UsageError(description: "unknown command \(command)\n\(usage)")
    }
} catch let e as UsageError {
    FileHandle.standardError.write(Data("error: \(e.description)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
