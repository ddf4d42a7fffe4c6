import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Service engine: the delivered list is bounded, on the portal and on GNOME")
struct ServiceDeliveredBoundTests {
    static let total = ServiceTransport.maximumDelivered + 2

    /// The delivered list after `total` posts one second apart: the oldest two have left it.
    static func expectBounded(_ delivered: [String]) {
        #expect(delivered.count == ServiceTransport.maximumDelivered)
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

    @Test("a saved delivered list over the bound (GNOME's, before it had one) keeps its newest when read, and is saved so")
    func savedOverTheBound() async throws {
        let folder = try ScratchFolder()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var saved = EngineState()
        // Saved newest first: the order of the file is not the order of the dates.
        for index in (0..<Self.total).reversed() {
            let request = UNNotificationRequest(identifier: "n\(index)", content: UNMutableNotificationContent(), trigger: nil)
            saved.delivered.append(EngineState.Delivered(
                notification: try NotificationSnapshot(UNNotification(date: start + Double(index), request: request)),
                server: GnomeInterface.busName, id: 0))
        }
        try EngineState.file(in: folder.url).save(saved)
        let fixture = try await GnomeFixture(stateDirectory: folder.url)
        let delivered = await fixture.center.deliveredNotifications().map(\.request.identifier)
        #expect(delivered.count == ServiceTransport.maximumDelivered)
        #expect(delivered.first == "n2")
        #expect(delivered.last == "n\(Self.total - 1)")
        try await fixture.center.writeStateNow()
        guard case .loaded(let written) = try EngineState.file(in: folder.url).load() else {
            Issue.record("the state was not written")
            return
        }
        #expect(written.delivered.count == ServiceTransport.maximumDelivered)
        #expect(!written.delivered.contains { $0.notification.request.identifier == "n0" })
        await fixture.stop()
    }
}
