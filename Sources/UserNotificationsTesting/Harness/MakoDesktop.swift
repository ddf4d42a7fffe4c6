/// A private bus, a headless sway and mako on them, for tests against a real notification
/// server; stopped by PID in reverse order.
public struct MakoDesktop: Sendable {
    public let testBus: TestBus
    public let compositor: SwayCompositor
    public let mako: MakoServer

    /// Starts the three, runs `body`, and stops them whether `body` throws or not.
    public static func run(_ body: (MakoDesktop) async throws -> Void) async throws {
        let testBus = try await TestBus()
        let compositor: SwayCompositor
        do {
            compositor = try await SwayCompositor()
        } catch {
            await testBus.stop()
            throw error
        }
        let mako: MakoServer
        do {
            mako = try await MakoServer(bus: testBus, compositor: compositor)
        } catch {
            await compositor.stop()
            await testBus.stop()
            throw error
        }
        let desktop = MakoDesktop(testBus: testBus, compositor: compositor, mako: mako)
        do {
            try await body(desktop)
        } catch {
            await desktop.stop()
            throw error
        }
        await desktop.stop()
    }

    /// Stops mako, sway and the bus.
    public func stop() async {
        await mako.stop()
        await compositor.stop()
        await testBus.stop()
    }
}
