import DBus
import Synchronization
import Testing
import UserNotificationsTesting

/// ``DBusLoopExecutor``: tasks whose jobs run on the D-Bus I/O thread between its reports.
@Suite("Tasks on the D-Bus I/O thread")
struct LoopExecutorTests {
    @Test("a task that prefers the loop executor runs on the I/O thread, after each await too; a detached task does not")
    func runsOnTheLoop() async throws {
        // The first connection of the process starts the I/O thread (before it, the executor's
        // jobs run on a global queue).
        let testBus = try await TestBus()
        let connection = try await DBusConnection.connect(to: testBus.bus)
        defer { withExtendedLifetime(connection) {} }
        let places = await Task(executorPreference: DBusLoopExecutor.shared) {
            var places = [DBusLoopExecutor.isCurrentThread]
            for _ in 0..<5 {
                try? await Task.sleep(for: .milliseconds(1))
                places.append(DBusLoopExecutor.isCurrentThread)
            }
            return places
        }.value
        #expect(places == Array(repeating: true, count: 6))
        #expect(await Task.detached { DBusLoopExecutor.isCurrentThread }.value == false)
    }

    @Test("calls made from it get their replies, and replies sent from it reach their callers")
    func callsAndReplies() async throws {
        let testBus = try await TestBus()
        let server = try await DBusConnection.connect(to: testBus.bus)
        let interface = try DBusExportedInterface(
            name: "org.example.Echo", introspectionXML: "  <interface name=\"org.example.Echo\"><method name=\"Echo\"/></interface>"
        ) { invocation in
            // Answered later, from a job on the I/O thread (the agent's way), not from the handler.
            Task(executorPreference: DBusLoopExecutor.shared) { invocation.reply(invocation.message.body) }
        }
        server.export(DBusExportedObject(path: try DBusObjectPath("/org/example/Echo"), interfaces: [interface]))
        let client = try await DBusConnection.connect(to: testBus.bus)
        let destination = server.uniqueName
        let answers = try await Task(executorPreference: DBusLoopExecutor.shared) {
            var answers: [DBusValue] = []
            for index in 0..<200 {
                let reply = try await client.call(echoCall(destination, "Echo", [.uint32(UInt32(index))]), timeout: .seconds(10))
                answers.append(contentsOf: reply.body)
                #expect(DBusLoopExecutor.isCurrentThread)
            }
            return answers
        }.value
        #expect(answers == (0..<200).map { DBusValue.uint32(UInt32($0)) })
    }

    @Test("a task that keeps queueing jobs leaves the bus its turn")
    func busKeepsItsTurn() async throws {
        let testBus = try await TestBus()
        let server = try await DBusConnection.connect(to: testBus.bus)
        try exportEcho(on: server)
        let client = try await DBusConnection.connect(to: testBus.bus)
        let stop = Atomic<Bool>(false)
        // Yields on the I/O thread until told to stop, for 10 s at most: each yield queues its
        // next job while the last one runs.
        let spinner = Task(executorPreference: DBusLoopExecutor.shared) {
            let clock = ContinuousClock()
            let end = clock.now + .seconds(10)
            var rounds = 0
            while !stop.load(ordering: .relaxed), clock.now < end {
                rounds += 1
                await Task.yield()
            }
            return (rounds, clock.now < end)
        }
        for index in 0..<20 {
            let reply = try await client.call(echoCall(server.uniqueName, "Echo", [.int32(Int32(index))]), timeout: .seconds(5))
            #expect(reply.body == [.int32(Int32(index))])
        }
        stop.store(true, ordering: .relaxed)
        let (rounds, stoppedInTime) = await spinner.value
        #expect(rounds > 0)
        #expect(stoppedInTime, "the calls finished only once the spinning task gave up")
    }

    @Test("a wake-up asked for on the I/O thread outside a report runs at once")
    func wakeUpOutsideAReport() async {
        let ran = await Task(executorPreference: DBusLoopExecutor.shared) {
            let ran = Atomic<Bool>(false)
            DBusConnection.afterHandling { ran.store(true, ordering: .relaxed) }
            return ran.load(ordering: .relaxed)
        }.value
        #expect(ran)
    }
}
