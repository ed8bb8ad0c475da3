import Foundation
import GeneratorCLI

// openai-generator: the commands are in GeneratorCLI (OpenAIGeneratorCommand); this writes what one
// printed and exits with its status.
let outcome = OpenAIGeneratorCommand.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(outcome.output.utf8))
FileHandle.standardError.write(Data(outcome.errorOutput.utf8))
exit(outcome.status)
