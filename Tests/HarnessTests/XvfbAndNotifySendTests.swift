import Foundation
import Testing
import UserNotificationsTesting

@Suite("XvfbDisplay and NotifySend")
struct XvfbAndNotifySendTests {
    @Test("Xvfb picks a free display that X clients can open, and stop() removes its socket")
    func xvfbServesDisplay() async throws {
        let display = try await XvfbDisplay()
        let socket = "/tmp/.X11-unix/X\(display.number)"
        #expect(FileManager.default.fileExists(atPath: socket))

        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display.display
        let info = try await ChildProcess(executable: ToolRequirement.require("xdpyinfo"), environment: environment)
            .result(timeout: .seconds(10))
            .check()
        #expect(info.standardOutput.contains("dimensions:    1280x800 pixels"))

        let second = try await XvfbDisplay(screen: "640x480x24")
        #expect(second.number != display.number)
        await second.stop()

        // The socket's identity: another test's Xvfb may take the freed display number at once,
        // and its new socket at the same path is not this one left behind.
        let identity = { XvfbDisplay.identity(of: socket) }
        let ours = identity()
        #expect(ours != nil)
        await display.stop()
        #expect(display.process.exitStatus != nil)
        #expect(Glibc.kill(display.pid, 0) == -1 && errno == ESRCH)
        #expect(identity() != ours)
    }

    @Test("a killed Xvfb's socket is removed by stop(), as a stopped one removes its own")
    func killedLeavesNothing() async throws {
        let display = try await XvfbDisplay()
        let socket = "/tmp/.X11-unix/X\(display.number)"
        // By identity: another test's Xvfb may take the freed display number at once.
        let identity = { XvfbDisplay.identity(of: socket) }
        let ours = identity()
        #expect(ours != nil)
        // SIGKILL, as stop() sends when SIGTERM takes longer than its grace on a loaded machine.
        display.process.send(SIGKILL)
        await display.stop()
        #expect(display.process.exitStatus != nil)
        #expect(identity() != ours)
    }

    @Test("notify-send on a bus without a notification server fails, and its error is captured")
    func notifySendWithoutServer() async throws {
        let bus = try await TestBus()
        let result = try await NotifySend(bus: bus).run(["Nobody is listening"])
        #expect(!result.succeeded)
        #expect(result.command.contains("Nobody is listening"))
        #expect(result.standardError.contains("org.freedesktop.DBus.Error.ServiceUnknown"))
        await bus.stop()
    }
}
