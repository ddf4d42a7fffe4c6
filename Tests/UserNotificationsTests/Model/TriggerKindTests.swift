import Foundation
import Testing
@testable import UserNotifications

@Suite("Trigger kinds")
struct TriggerKindTests {
    @Test func kindsAreTellableApartWithIsKindOf() {
        let push: UNNotificationTrigger = UNPushNotificationTrigger()
        let interval: UNNotificationTrigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
        #expect(push.isKind(of: UNPushNotificationTrigger.self))
        #expect(!interval.isKind(of: UNPushNotificationTrigger.self))
        #expect(interval.isKind(of: UNNotificationTrigger.self))
        #expect(!push.repeats)
    }

    @Test func triggersOfDifferentKindsAreNeverEqual() {
        let interval = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)
        let calendar = UNCalendarNotificationTrigger(dateMatching: DateComponents(), repeats: false)
        #expect(interval as UNNotificationTrigger != calendar)
        #expect(UNPushNotificationTrigger() == UNPushNotificationTrigger())
    }

    @Test func pushTriggerNeedsNoValidationAndHasNoDate() throws {
        try UNPushNotificationTrigger().validate()
        #expect(UNPushNotificationTrigger().nextFireDate(after: Date(), anchor: Date(), calendar: .current) == nil)
    }

    @Test func locationTriggerKeepsItsRegionButIsRefused() {
        let region = LocationTriggerRegion(latitude: 39.990465, longitude: 116.333386, radius: 1000, identifier: "center", notifyOnExit: false)
        let trigger = UNLocationNotificationTrigger(region: region, repeats: true)
        #expect(trigger.region == region && trigger.region.notifyOnEntry && !trigger.region.notifyOnExit)
        #expect(throws: NotificationTriggerError.locationTriggersUnsupported) { try trigger.validate() }
        #expect(trigger.nextFireDate(after: Date(), anchor: Date(), calendar: .current) == nil)
    }

    @Test(arguments: [
        UNPushNotificationTrigger(),
        UNTimeIntervalNotificationTrigger(timeInterval: 90, repeats: true),
        UNCalendarNotificationTrigger(dateMatching: DateComponents(timeZone: TimeZone(identifier: "Europe/Paris"), hour: 7), repeats: true),
        UNLocationNotificationTrigger(region: LocationTriggerRegion(latitude: 1, longitude: 2, radius: 3, identifier: "r"), repeats: false),
    ] as [UNNotificationTrigger])
    func everyKindSurvivesSecureCodingAsItself(trigger: UNNotificationTrigger) throws {
        let decoded = try #require(try secureCodingRoundTrip(trigger, as: UNNotificationTrigger.self))
        #expect(type(of: decoded) == type(of: trigger))
        #expect(decoded == trigger)
    }

    @Test func copiesOfTriggersAreTheTriggersThemselves() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
        #expect(trigger.copy() as AnyObject === trigger)
    }
}
