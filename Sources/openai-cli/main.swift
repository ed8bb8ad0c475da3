import Foundation
import OpenAICLI

// `openai`: the OpenAI API from the shell (see `openai --help` and the README's CLI section).
exit(await OpenAITool.run(Array(CommandLine.arguments.dropFirst())))
