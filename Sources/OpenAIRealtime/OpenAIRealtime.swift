// The WebSocket transport under the sessions (WebSocket, WebSocketConfiguration, WebSocketError):
// part of this module's API, so `import OpenAIRealtime` is all a caller writes.
@_exported import OpenAIWebSocket
