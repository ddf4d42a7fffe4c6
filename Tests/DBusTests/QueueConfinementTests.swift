@testable import DBus
import DesktopNotificationsSupport
import Dispatch
import Testing
import UserNotificationsTesting

/// `ConnectionCore` is `@unchecked Sendable` because it is touched only on its queue; its entry
/// points assert that with `assertOnQueue()`, which is `isOnQueue()` in debug builds. These
/// tests show the predicate is a real check (it says no off the queue, so the assertions can
/// fire) and that libdbus's callbacks and our completions do arrive on the queue. Every other
/// DBus test, run in a debug build, passes through those assertions.
@Suite("Connection core: queue confinement is checked")
struct QueueConfinementTests {
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    @Test("off the queue says no: the caller's task, another queue, another connection's queue")
    func offQueue() async throws {
        let connection = try await DBusConnection.connect(to: testBus.bus)
        let other = try await DBusConnection.connect(to: testBus.bus)
        let core = connection.core
        #expect(!core.isOnQueue())
        let fromOtherQueue = DispatchQueue(label: "QueueConfinementTests.other").sync { core.isOnQueue() }
        #expect(!fromOtherQueue)
        var fromOtherCore = true
        other.core.performNow { fromOtherCore = core.isOnQueue() }
        #expect(!fromOtherCore)
        let fromDetached = await Task.detached { core.isOnQueue() }.value
        #expect(!fromDetached)
    }

    @Test("on the queue says yes: a work item, a sync from another thread, nested perform")
    func onQueue() async throws {
        let connection = try await DBusConnection.connect(to: testBus.bus)
        let core = connection.core
        var inSync = false
        core.performNow { inSync = core.isOnQueue() }
        #expect(inSync)
        let inAsync = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            core.queue.async { continuation.resume(returning: core.isOnQueue()) }
        }
        #expect(inAsync)
        let nested = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            core.queue.async { core.perform { continuation.resume(returning: core.isOnQueue()) } }
        }
        #expect(nested)
    }

    @Test("an exported object's handler and a call's completion run on the queue, as their docs state")
    func callbacksArriveOnQueue() async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        let serverCore = server.core
        let handlerOnQueue = Locked<Bool?>(nil)
        let interface = try DBusExportedInterface(
            name: "org.example.Echo",
            introspectionXML: "  <interface name=\"org.example.Echo\"><method name=\"Echo\"/></interface>"
        ) { invocation in
            handlerOnQueue.withLock { $0 = serverCore.isOnQueue() }
            invocation.reply(invocation.message.body)
        }
        server.export(DBusExportedObject(path: try DBusObjectPath("/org/example/Echo"), interfaces: [interface]))
        let client = try await DBusConnection.connect(to: testBus.bus)
        let clientCore = client.core
        let completionOnQueue = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            do {
                client.startCall(try echoCall(server.uniqueName, "Echo", [.int32(7)])) { result in
                    continuation.resume(returning: (try? result.get()) != nil && clientCore.isOnQueue())
                }
            } catch {
                Issue.record(error)
                continuation.resume(returning: false)
            }
        }
        #expect(completionOnQueue)
        #expect(handlerOnQueue.withLock { $0 } == true)
    }
}
