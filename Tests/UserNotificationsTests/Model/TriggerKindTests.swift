import CoreLocation
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

    @Test func locationTriggerKeepsACopyOfItsRegion() throws {
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 39.990465, longitude: 116.333386), radius: 1000, identifier: "center")
        region.notifyOnExit = false
        let trigger = UNLocationNotificationTrigger(region: region, repeats: true)
        region.notifyOnEntry = false
        let kept = try #require(trigger.region as? CLCircularRegion)
        #expect(kept.identifier == "center" && kept.radius == 1000 && kept.center.latitude == 39.990465)
        #expect(kept.notifyOnEntry && !kept.notifyOnExit)
        #expect(kept !== trigger.region)
        try trigger.validate()
        #expect(trigger.nextFireDate(after: Date(), anchor: Date(), calendar: .current) == nil)
    }

    @Test func locationTriggerRefusesWhatCannotBeWatched() {
        let circle = { (lat: Double, lon: Double, radius: Double) in
            UNLocationNotificationTrigger(region: CLCircularRegion(center: CLLocationCoordinate2D(latitude: lat, longitude: lon), radius: radius, identifier: "r"), repeats: false)
        }
        #expect(throws: NotificationTriggerError.locationRegionNotCircular) { try UNLocationNotificationTrigger(region: CLRegion(), repeats: false).validate() }
        #expect(throws: NotificationTriggerError.locationCenterInvalid(latitude: 91, longitude: 0)) { try circle(91, 0, 10).validate() }
        #expect(throws: NotificationTriggerError.locationRadiusInvalid(0)) { try circle(1, 2, 0).validate() }
        #expect(throws: NotificationTriggerError.self) { try circle(1, 2, .infinity).validate() }
        #expect(throws: NotificationTriggerError.self) { try circle(.nan, 2, 10).validate() }
    }

    @Test(arguments: [
        UNPushNotificationTrigger(),
        UNTimeIntervalNotificationTrigger(timeInterval: 90, repeats: true),
        UNCalendarNotificationTrigger(dateMatching: DateComponents(timeZone: TimeZone(identifier: "Europe/Paris"), hour: 7), repeats: true),
        UNLocationNotificationTrigger(region: CLCircularRegion(center: CLLocationCoordinate2D(latitude: 1, longitude: 2), radius: 3, identifier: "r"), repeats: false),
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
