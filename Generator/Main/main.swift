import Foundation
import OpenAIGeneratorCLI

// openai-generator: the commands are in OpenAIGeneratorCLI (OpenAIGeneratorCommand); this writes what one
// printed and exits with its status.
let outcome = OpenAIGeneratorCommand.run(Array(CommandLine.arguments.dropFirst()))
// Diagnostics first, then the report, so that in a combined log the summary comes last.
FileHandle.standardError.write(Data(outcome.errorOutput.utf8))
FileHandle.standardOutput.write(Data(outcome.output.utf8))
exit(outcome.status)
