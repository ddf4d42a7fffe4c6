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

/// Test doubles of the objects the system makes, declared as apps declare them; never made.
class RecordedNotification: UNNotification, @unchecked Sendable {}
class RecordedResponse: UNNotificationResponse, @unchecked Sendable {}
class RecordedTextResponse: UNTextInputNotificationResponse, @unchecked Sendable {}
class RecordedSettings: UNNotificationSettings, @unchecked Sendable {}
class RecordedTrigger: UNNotificationTrigger, @unchecked Sendable {}
class RecordedIntervalTrigger: UNTimeIntervalNotificationTrigger, @unchecked Sendable {}
class RecordedCalendarTrigger: UNCalendarNotificationTrigger, @unchecked Sendable {}
class RecordedPushTrigger: UNPushNotificationTrigger, @unchecked Sendable {}
class RecordedLocationTrigger: UNLocationNotificationTrigger, @unchecked Sendable {}
class RecordedSound: UNNotificationSound, @unchecked Sendable {}
class RecordedAttachment: UNNotificationAttachment, @unchecked Sendable {}
class RecordedActionIcon: UNNotificationActionIcon, @unchecked Sendable {}

/// A subclass with state of its own calls the coder initialiser of its superclass, a
/// designated one as on Apple platforms.
class TaggedResponse: UNNotificationResponse, @unchecked Sendable {
    let tag: String

    required init?(coder: NSCoder) {
        tag = "coded"
        super.init(coder: coder)
    }
}

/// Subclasses with state of their own of the classes an app builds, decoding through their
/// superclass's designated coder initialiser as on Apple platforms.
class TaggedRequest: UNNotificationRequest, @unchecked Sendable {
    let tag: String

    required init?(coder: NSCoder) {
        tag = "coded"
        super.init(coder: coder)
    }
}

class TaggedCategory: UNNotificationCategory, @unchecked Sendable {
    let tag: String

    required init?(coder: NSCoder) {
        tag = "coded"
        super.init(coder: coder)
    }
}

class TaggedAction: UNTextInputNotificationAction, @unchecked Sendable {
    let tag: String

    required init?(coder: NSCoder) {
        tag = "coded"
        super.init(coder: coder)
    }
}

class CodedContent: UNMutableNotificationContent {
    var tag = ""

    required init?(coder: NSCoder) {
        tag = "coded"
        super.init(coder: coder)
    }
}
