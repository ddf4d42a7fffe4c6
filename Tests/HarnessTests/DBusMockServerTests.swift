import Foundation
import Testing
import UserNotificationsTesting

@Suite("DBusMockServer: python-dbusmock's notification_daemon template")
struct DBusMockServerTests {
    @Test("notify-send's Notify shows up in GetCalls; ClearCalls forgets it")
    func recordsNotify() async throws {
        let bus = try await TestBus()
        let mock = try await DBusMockServer(bus: bus)
        #expect(try await bus.ownerPID(of: DBusMockServer.busName) == mock.pid)

        let sent = try await NotifySend(bus: bus).run(["--app-name=HarnessTests", "Mock summary", "Mock body"])
        #expect(sent.succeeded, "\(sent.standardError)")
        let calls = try await mock.getCalls()
        #expect(calls.contains("'Notify'"))
        #expect(calls.contains("'Mock summary'"))
        #expect(calls.contains("'Mock body'"))
        #expect(calls.contains("'HarnessTests'"))
        let notifies = try await mock.getMethodCalls("Notify")
        #expect(notifies.contains("'Mock summary'"))

        try await mock.clearCalls()
        #expect(try await mock.getCalls() == "(@a(tsav) [],)")
        await mock.stop()
        #expect(!mock.process.isRunning)
        await bus.stop()
    }

    @Test("EmitSignal delivers ActionInvoked to a waiting notify-send")
    func emitsSignal() async throws {
        let bus = try await TestBus()
        let mock = try await DBusMockServer(bus: bus, capabilities: ["actions", "body"])
        let waiting = try NotifySend(bus: bus).start(["--print-id", "--action=open=Open", "Act on me"])
        #expect(await waiting.waitForOutput(containing: "\n", timeout: .seconds(10)), "\(waiting.standardError)")
        let id = try #require(UInt32(waiting.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))

        try await mock.emitSignal(name: "ActionInvoked", signature: "us", arguments: "[<uint32 \(id)>, <'open'>]")
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.succeeded)
        #expect(result.standardOutput == "\(id)\nopen\n")
        await mock.stop()
        await bus.stop()
    }

    @Test("AddMethod replaces a method of the mocked server")
    func addsMethod() async throws {
        let bus = try await TestBus()
        let mock = try await DBusMockServer(bus: bus)
        try await mock.addMethod(
            name: "GetServerInformation",
            inSignature: "",
            outSignature: "ssss",
            code: "ret = ('harness-mock', 'it\\'s us', '9.9', '1.2')"
        )
        let info = try await bus.run("gdbus", [
            "call", "--session", "--dest", DBusMockServer.busName, "--object-path", DBusMockServer.objectPath,
            "--method", "org.freedesktop.Notifications.GetServerInformation",
        ]).check()
        #expect(info.standardOutput.contains("'harness-mock'"))
        #expect(info.standardOutput.contains("'1.2'"))
        await mock.stop()
        await bus.stop()
    }
}
