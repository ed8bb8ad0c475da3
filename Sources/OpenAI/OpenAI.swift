// The runtime the generated code is built on (OpenAIClient, Configuration, OpenAIError,
// OpenAIStream, FileUpload, ...): part of this module's API, so `import OpenAI` is all a caller writes.
@_exported import OpenAIRuntime
