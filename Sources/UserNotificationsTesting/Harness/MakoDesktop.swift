/// A private bus, a headless sway and mako on them, for tests against a real notification
/// server; stopped by PID in reverse order.
public struct MakoDesktop: Sendable {
    public let testBus: TestBus
    public let compositor: SwayCompositor
    public let mako: MakoServer

    /// Starts the three, runs `body`, and stops them whether `body` throws or not.
    public static func run(_ body: (MakoDesktop) async throws -> Void) async throws {
        let testBus = try await TestBus()
        let compositor = try await HarnessLifecycle.start({ try await SwayCompositor() }, cleanUp: { await testBus.stop() })
        let mako = try await HarnessLifecycle.start({ try await MakoServer(bus: testBus, compositor: compositor) }, cleanUp: {
            await compositor.stop()
            await testBus.stop()
        })
        try await HarnessLifecycle.run(MakoDesktop(testBus: testBus, compositor: compositor, mako: mako), body) { await $0.stop() }
    }

    /// Stops mako, sway and the bus.
    public func stop() async {
        await mako.stop()
        await compositor.stop()
        await testBus.stop()
    }
}
