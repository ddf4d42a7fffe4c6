import Foundation
import Testing
@testable import UserNotifications

@Suite("UNNotificationRequest, UNNotification and UNNotificationResponse")
struct NotificationRequestTests {
    @Test func requestKeepsAnImmutableCopyOfTheContent() {
        let content = UNMutableNotificationContent()
        content.title = "Before"
        let request = UNNotificationRequest(identifier: "id", content: content, trigger: nil)
        content.title = "After"

        #expect(request.content.title == "Before")
        #expect(!(request.content is UNMutableNotificationContent))
    }

    @Test func requestKeepsIdentifierAndTrigger() {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
        let request = UNNotificationRequest(identifier: "com.onevcat.usernotification.myFirstNotification", content: UNMutableNotificationContent(), trigger: trigger)
        #expect(request.identifier == "com.onevcat.usernotification.myFirstNotification")
        #expect(request.trigger === trigger)
        #expect(UNNotificationRequest(identifier: "now", content: UNMutableNotificationContent(), trigger: nil).trigger == nil)
    }

    @Test func requestsAreEqualByValue() {
        let first = UNNotificationRequest(identifier: "id", content: fullySetContent(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true))
        let second = UNNotificationRequest(identifier: "id", content: fullySetContent(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true))
        let otherTrigger = UNNotificationRequest(identifier: "id", content: fullySetContent(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 61, repeats: true))
        #expect(first == second)
        #expect(first != otherTrigger)
    }

    @Test func requestSurvivesSecureCoding() throws {
        let request = UNNotificationRequest(identifier: "id", content: fullySetContent(), trigger: UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 8), repeats: true))
        let decoded = try #require(try secureCodingRoundTrip(request))
        #expect(decoded == request)
        #expect(decoded.trigger is UNCalendarNotificationTrigger)
    }

    @Test func notificationCarriesDateAndRequest() throws {
        let notification = DeliveredNotifications.notification(identifier: "n", date: Date(timeIntervalSince1970: 42))
        #expect(notification.date == Date(timeIntervalSince1970: 42))
        #expect(notification.request.identifier == "n")
        #expect(try secureCodingRoundTrip(notification) == notification)
    }

    @Test func responseCarriesNotificationActionAndActivationToken() throws {
        let notification = DeliveredNotifications.notification()
        let response = UNNotificationResponse(notification: notification, actionIdentifier: UNNotificationDefaultActionIdentifier, activationToken: "token-1")
        #expect(response.notification == notification)
        #expect(response.actionIdentifier == UNNotificationDefaultActionIdentifier)
        #expect(response.activationToken == "token-1")
        #expect(DeliveredNotifications.response(to: notification, actionIdentifier: "a").activationToken == nil)
        #expect(try secureCodingRoundTrip(response, as: UNNotificationResponse.self) == response)
    }

    @Test func textInputResponseCarriesTheTypedText() throws {
        let notification = DeliveredNotifications.notification()
        let response = DeliveredNotifications.textResponse(to: notification, actionIdentifier: "action.input", userText: "Hello")
        #expect((response as? UNTextInputNotificationResponse)?.userText == "Hello")
        #expect(response != DeliveredNotifications.response(to: notification, actionIdentifier: "action.input"))

        let decoded = try secureCodingRoundTrip(response, as: UNNotificationResponse.self)
        #expect((decoded as? UNTextInputNotificationResponse)?.userText == "Hello")
    }
}
