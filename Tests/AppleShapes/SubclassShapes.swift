// Subclasses of Apple's open classes, declared without initialisers of their own.
import Foundation
import UserNotifications

/// Content subclassed without initialisers of its own.
public class TaggedContent: UNMutableNotificationContent {
    public var tag = ""
}

/// A content subclass made and filled in.
public func taggedContent(title: String) -> UNMutableNotificationContent {
    let content = TaggedContent()
    content.title = title
    content.tag = "shape"
    return content
}

/// A test double that subclasses the center, as mocks do; never made.
class RecordingNotificationCenter: UNUserNotificationCenter, @unchecked Sendable {}
