import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The queue key that marks ``ToolOwner``'s executor.
private let ownerQueueKey = DispatchSpecificKey<Bool>()

/// A serial executor on a dispatch queue that carries ``ownerQueueKey``: code can tell, without
/// trapping, whether it runs on ``ToolOwner``.
private final class OwnerExecutor: SerialExecutor, @unchecked Sendable {
    let queue = DispatchQueue(label: "ToolIsolationTests.owner")

    init() { queue.setSpecific(key: ownerQueueKey, value: true) }

    func enqueue(_ job: UnownedJob) {
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

/// Arguments that record, in `init(from:)`, whether they were decoded on ``ToolOwner``: where an
/// app type's conformance isolated to an actor must be used.
private struct Probe: Decodable, Sendable {
    var city: String
    var decodedOnOwner: Bool

    private enum CodingKeys: String, CodingKey { case city }

    init(from decoder: any Decoder) throws {
        city = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .city)
        decodedOnOwner = DispatchQueue.getSpecific(key: ownerQueueKey) == true
    }
}

/// The actor that creates the tools and asks for the parsed replies.
private actor ToolOwner {
    private let executor = OwnerExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func makeTool() throws -> RunnableFunction {
        try RunnableFunction(name: "probe", arguments: Probe.self) { "\($0.city) \($0.decodedOnOwner)" }
    }

    func parse(_ client: OpenAIClient) async throws -> Bool? {
        let parsed = try await client.chat.completions.parse(
            .init(messages: [.user(.init(content: "Where?"))], model: .gpt4o), as: Probe.self)
        return parsed.output?.decodedOnOwner
    }
}

/// `RunnableFunction` and `parse` decode on the caller's actor (their `isolation` parameter), where
/// an app type's `Decodable` conformance may be isolated (default MainActor isolation).
final class ToolIsolationTests: XCTestCase {
    func testAToolDecodesItsArgumentsOnTheActorThatMadeIt() async throws {
        let owner = ToolOwner()
        let tool = try await owner.makeTool()
        let result = try await tool.run(#"{"city": "Oslo"}"#)
        XCTAssertEqual(result, "Oslo true")
        // The control: a tool made outside the actor decodes outside it.
        let elsewhere = try RunnableFunction(name: "probe", arguments: Probe.self) { "\($0.city) \($0.decodedOnOwner)" }
        let other = try await elsewhere.run(#"{"city": "Bergen"}"#)
        XCTAssertEqual(other, "Bergen false")
    }

    func testParseDecodesTheReplyOnTheCallersActor() async throws {
        let server = try TestServer.shared()
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": TestServer.scenario()])
        let onOwner = try await ToolOwner().parse(client)
        XCTAssertEqual(onOwner, true)
    }
}
