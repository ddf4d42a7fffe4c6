import Foundation
import Testing
@testable import UserNotifications

@Suite("UNNotificationCategory and its actions")
struct NotificationCategoryTests {
    @Test func actionOptionsDefaultToNone() {
        let action = UNNotificationAction(identifier: "a", title: "A")
        #expect(action.options.isEmpty && action.icon == nil)
    }

    @Test func actionCanCarryAnIcon() {
        let action = UNNotificationAction(identifier: "a", title: "A", options: [.foreground], icon: UNNotificationActionIcon(systemImageName: "star"))
        #expect(action.icon == UNNotificationActionIcon(systemImageName: "star"))
        #expect(action.icon != UNNotificationActionIcon(templateImageName: "star"))
        #expect(action.options == .foreground)
    }

    @Test func textInputActionKeepsButtonTitleAndPlaceholder() {
        let action = UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "Message")
        #expect(action.textInputButtonTitle == "Send" && action.textInputPlaceholder == "Message")
        #expect(action != UNNotificationAction(identifier: "reply", title: "Reply"))
        let withIcon = UNTextInputNotificationAction(identifier: "reply", title: "Reply", icon: UNNotificationActionIcon(templateImageName: "pen"), textInputButtonTitle: "Send", textInputPlaceholder: "Message")
        #expect(withIcon.icon == UNNotificationActionIcon(templateImageName: "pen"))
    }

    @Test func categoryWithoutPlaceholdersReportsEmptyStrings() {
        let category = UNNotificationCategory(identifier: "c", actions: [], intentIdentifiers: [])
        #expect(category.hiddenPreviewsBodyPlaceholder.isEmpty && category.categorySummaryFormat.isEmpty)
        #expect(category.options.isEmpty)
    }

    @Test func allThreeInitialisersKeepWhatTheyAreGiven() {
        let actions = [UNNotificationAction(identifier: "one", title: "One"), UNNotificationAction(identifier: "two", title: "Two")]
        let plain = UNNotificationCategory(identifier: "c", actions: actions, intentIdentifiers: ["INSendMessageIntent"], options: [.customDismissAction])
        let placeholder = UNNotificationCategory(identifier: "c", actions: actions, intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: "%u new messages", options: [])
        let summary = UNNotificationCategory(identifier: "c", actions: actions, intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: nil, categorySummaryFormat: "%u more from %@", options: [.hiddenPreviewsShowTitle])

        #expect(plain.actions.map(\.identifier) == ["one", "two"])
        #expect(plain.intentIdentifiers == ["INSendMessageIntent"] && plain.options == .customDismissAction)
        #expect(placeholder.hiddenPreviewsBodyPlaceholder == "%u new messages" && placeholder.categorySummaryFormat.isEmpty)
        #expect(summary.categorySummaryFormat == "%u more from %@" && summary.hiddenPreviewsBodyPlaceholder.isEmpty)
        #expect(summary.options == .hiddenPreviewsShowTitle)
    }

    @Test func categoriesAreEqualByValueAndDeduplicateInSets() {
        let make = { UNNotificationCategory(identifier: "c", actions: [UNNotificationAction(identifier: "a", title: "A")], intentIdentifiers: []) }
        let other = UNNotificationCategory(identifier: "c", actions: [UNNotificationAction(identifier: "b", title: "B")], intentIdentifiers: [])
        #expect(make() == make())
        #expect(make() != other)
        #expect(Set([make(), make(), other]).count == 2)
    }

    @Test func categoryAndActionsSurviveSecureCoding() throws {
        let category = UNNotificationCategory(
            identifier: "c",
            actions: [
                UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [.foreground], textInputButtonTitle: "Send", textInputPlaceholder: "…"),
                UNNotificationAction(identifier: "delete", title: "Delete", options: [.destructive], icon: UNNotificationActionIcon(systemImageName: "trash")),
            ],
            intentIdentifiers: ["i"],
            hiddenPreviewsBodyPlaceholder: "hidden",
            categorySummaryFormat: "%u",
            options: [.customDismissAction]
        )
        let decoded = try #require(try secureCodingRoundTrip(category))
        #expect(decoded == category)
        #expect(decoded.actions.first is UNTextInputNotificationAction)
        #expect(try secureCodingRoundTrip(category.actions[1]) == category.actions[1])
        #expect(try secureCodingRoundTrip(category.actions[0], as: UNNotificationAction.self) is UNTextInputNotificationAction)
    }
}
