/// A private bus, a virtual display and xfce4-notifyd on them, for tests against a real
/// notification server; stopped by PID in reverse order.
public struct XfceDesktop: Sendable {
    public let testBus: TestBus
    public let display: XvfbDisplay
    public let xfce: XfceNotifyServer

    /// Starts the three, runs `body`, and stops them whether `body` throws or not.
    public static func run(_ body: (XfceDesktop) async throws -> Void) async throws {
        let testBus = try await TestBus()
        let display = try await HarnessLifecycle.start({ try await XvfbDisplay() }, cleanUp: { await testBus.stop() })
        let xfce = try await HarnessLifecycle.start({ try await XfceNotifyServer(bus: testBus, display: display) }, cleanUp: {
            await display.stop()
            await testBus.stop()
        })
        try await HarnessLifecycle.run(XfceDesktop(testBus: testBus, display: display, xfce: xfce), body) { await $0.stop() }
    }

    /// Stops xfce4-notifyd, the display and the bus.
    public func stop() async {
        await xfce.stop()
        await display.stop()
        await testBus.stop()
    }
}
