import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal engine: the delivered list is bounded")
struct PortalDeliveredBoundTests {
    @Test("past the bound the oldest notification leaves the delivered list")
    func bound() async throws {
        let fixture = try await PortalFixture()
        let total = PortalEngine.maximumDelivered + 2
        for index in 0..<total {
            fixture.clock.advance(by: 1)
            try await fixture.post("n\(index)")
        }
        let delivered = await fixture.center.deliveredNotifications().map(\.request.identifier)
        #expect(delivered.count == PortalEngine.maximumDelivered)
        #expect(delivered.first == "n2")
        #expect(delivered.last == "n\(total - 1)")
        await fixture.stop()
    }
}
