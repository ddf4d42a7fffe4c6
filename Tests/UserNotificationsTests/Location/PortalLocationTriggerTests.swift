import Foundation
import Testing
import UserNotificationsTesting
@testable import UserNotifications

@Suite("Location triggers on the portal engine (fake notification portal and fake GeoClue on a private bus)")
struct PortalLocationTriggerTests {
    @Test("a location request is pending until a position enters its region; then the portal gets AddNotification and it leaves the list")
    func entering() async throws {
        try await ServiceLocationScenarios.enteringDelivers(.portal)
    }

    @Test("a repeating location request fires at every entry and stays pending, after the dated requests")
    func repeating() async throws {
        try await ServiceLocationScenarios.repeatingStays(.portal)
    }

    @Test("removing pending location requests unwatches them: a crossing does not deliver them, and GeoClue's client stops with the last")
    func removal() async throws {
        try await ServiceLocationScenarios.removalUnwatches(.portal)
    }

    @Test("GeoClue absent or refusing the app: add fails with LocationServiceError, as in process, and nothing is pending")
    func refused() async throws {
        try await ServiceLocationScenarios.refusedByGeoClue(.portal)
    }

    @Test("a saved location request is watched again after a restart of the center and fires through the portal")
    func restored() async throws {
        try await ServiceLocationScenarios.restoredAfterRestart(.portal)
    }
}
