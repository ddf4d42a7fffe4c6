import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Service engine: the delivered list is bounded, on the portal and on GNOME")
struct ServiceDeliveredBoundTests {
    static let total = ServiceEngine.maximumDelivered + 2

    /// The delivered list after `total` posts one second apart: the oldest two have left it.
    static func expectBounded(_ delivered: [String]) {
        #expect(delivered.count == ServiceEngine.maximumDelivered)
        #expect(delivered.first == "n2")
        #expect(delivered.last == "n\(total - 1)")
    }

    @Test("past the bound the oldest notification leaves the portal engine's delivered list")
    func portal() async throws {
        let fixture = try await PortalFixture()
        for index in 0..<Self.total {
            fixture.clock.advance(by: 1)
            try await fixture.post("n\(index)")
        }
        Self.expectBounded(await fixture.center.deliveredNotifications().map(\.request.identifier))
        await fixture.stop()
    }

    @Test("past the bound the oldest notification leaves the GNOME engine's delivered list (GNOME never says one closed)")
    func gnome() async throws {
        let fixture = try await GnomeFixture()
        for index in 0..<Self.total {
            fixture.clock.advance(by: 1)
            try await fixture.post("n\(index)")
        }
        Self.expectBounded(await fixture.center.deliveredNotifications().map(\.request.identifier))
        await fixture.stop()
    }
}
