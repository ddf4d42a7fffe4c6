import Foundation
import Testing
@testable import UserNotifications

@Suite("UNNotificationContent and UNMutableNotificationContent")
struct NotificationContentTests {
    @Test func newContentHasApplesDefaults() {
        let content = UNMutableNotificationContent()
        #expect(content.title.isEmpty && content.subtitle.isEmpty && content.body.isEmpty)
        #expect(content.badge == nil && content.sound == nil)
        #expect(content.attachments.isEmpty && content.userInfo.isEmpty)
        #expect(content.categoryIdentifier.isEmpty && content.threadIdentifier.isEmpty && content.launchImageName.isEmpty)
        #expect(content.targetContentIdentifier == nil && content.filterCriteria == nil)
        #expect(content.interruptionLevel == .active)
        #expect(content.relevanceScore == 0)
        #expect(content.summaryArgument.isEmpty && content.summaryArgumentCount == 0)
    }

    @Test func mutableCopyIsAnEditableCopyThatLeavesTheOriginalAlone() {
        let original = UNMutableNotificationContent()
        original.title = "Greetings"
        original.body = "Long time no see"
        let immutable = original.copy() as! UNNotificationContent

        let edited = immutable.mutableCopy() as! UNMutableNotificationContent
        edited.body = "\(edited.body), Andrew"

        #expect(edited.body == "Long time no see, Andrew")
        #expect(immutable.body == "Long time no see")
        #expect(edited.title == "Greetings")
    }

    @Test func copyOfMutableContentIsImmutable() {
        let mutable = UNMutableNotificationContent()
        mutable.title = "Title"
        let copy = mutable.copy()
        #expect(type(of: copy) == UNNotificationContent.self)
        mutable.title = "Changed"
        #expect((copy as? UNNotificationContent)?.title == "Title")
    }

    @Test func everyPropertyCanBeSetAndRead() {
        let content = fullySetContent()
        #expect(content.title == "Title" && content.subtitle == "Subtitle" && content.body == "Body")
        #expect(content.badge == 3)
        #expect(content.sound == UNNotificationSound(named: "bell"))
        #expect(content.userInfo["name"] as? String == "onevcat")
        #expect(content.categoryIdentifier == "category" && content.threadIdentifier == "thread")
        #expect(content.launchImageName == "launch" && content.targetContentIdentifier == "target")
        #expect(content.interruptionLevel == .timeSensitive && content.relevanceScore == 0.75)
        #expect(content.filterCriteria == "work")
        #expect(content.summaryArgument == "Show" && content.summaryArgumentCount == 3)
    }

    @Test func contentIsEqualByValueWhateverItsClass() {
        let mutable = fullySetContent()
        let immutable = mutable.copy() as! UNNotificationContent
        #expect(immutable == mutable)
        #expect(immutable.hash == mutable.hash)
    }

    @Test(arguments: [
        { (content: UNMutableNotificationContent) in content.body = "other" },
        { content in content.badge = 4 },
        { content in content.sound = .default },
        { content in content.userInfo["name"] = "someone else" },
        { content in content.userInfo["extra"] = [1, 2] },
        { content in content.interruptionLevel = .critical },
        { content in content.filterCriteria = nil },
    ] as [@Sendable (UNMutableNotificationContent) -> Void])
    func anyChangedValueMakesContentUnequal(change: @Sendable (UNMutableNotificationContent) -> Void) {
        let original = fullySetContent()
        let changed = original.mutableCopy() as! UNMutableNotificationContent
        change(changed)
        #expect(changed != original)
    }

    @Test func nestedUserInfoComparesByValue() {
        let first = UNMutableNotificationContent()
        first.userInfo = ["aps": ["alert": ["title": "Hi"], "badge": 1], "ids": [1, 2, 3]]
        let second = UNMutableNotificationContent()
        second.userInfo = ["aps": ["badge": 1, "alert": ["title": "Hi"]], "ids": [1, 2, 3]]
        #expect(first == second)
        second.userInfo = ["aps": ["badge": 1, "alert": ["title": "Hi"]], "ids": [3, 2, 1]]
        #expect(first != second)
    }

    @Test func survivesSecureCodingAndStaysMutable() throws {
        let content = fullySetContent()
        let decoded = try #require(try secureCodingRoundTrip(content, as: UNNotificationContent.self))
        #expect(decoded is UNMutableNotificationContent)
        #expect(decoded == content)
    }

    @Test func contentWithUnstorableUserInfoCannotBeUnarchived() {
        let content = UNMutableNotificationContent()
        content.userInfo = ["object": NSObject()]
        #expect(throws: (any Error).self) { try secureCodingRoundTrip(content, as: UNNotificationContent.self) }
    }
}

/// Content with every property set to something other than its default.
func fullySetContent() -> UNMutableNotificationContent {
    let content = UNMutableNotificationContent()
    content.title = "Title"
    content.subtitle = "Subtitle"
    content.body = "Body"
    content.badge = 3
    content.sound = UNNotificationSound(named: "bell")
    content.userInfo = ["name": "onevcat", "count": 2, "nested": ["flag": true, "list": [1.5, "two"]]]
    content.categoryIdentifier = "category"
    content.threadIdentifier = "thread"
    content.launchImageName = "launch"
    content.targetContentIdentifier = "target"
    content.interruptionLevel = .timeSensitive
    content.relevanceScore = 0.75
    content.filterCriteria = "work"
    content.summaryArgument = "Show"
    content.summaryArgumentCount = 3
    return content
}

@Suite("UNNotificationContent.updating(from:)")
struct ContentProvidingTests {
    final class MessageIntent: NSObject, UNNotificationContentProviding {}

    @Test func everyProviderIsRefusedOnLinux() {
        let error = #expect(throws: UNError.self) { try UNMutableNotificationContent().updating(from: MessageIntent()) }
        #expect(error?.code == .contentProvidingObjectNotAllowed)
        #expect(error?.localizedDescription.contains("MessageIntent") == true)
    }
}
