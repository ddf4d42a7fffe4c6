/// The domain of the errors that the UserNotifications API reports.
public let UNErrorDomain: String = "UNErrorDomain"

/// An error from the UserNotifications API, with Apple's domain and codes.
///
/// Catch a specific code the way Apple's generated errors allow:
///
/// ```swift
/// do {
///     let attachment = try UNNotificationAttachment(identifier: "", url: url)
/// } catch UNError.attachmentInvalidFileSize {
///     // too big for its kind
/// }
/// ```
///
/// Every error carries a sentence saying what went wrong and, where it helps, which file or
/// value was at fault; `localizedDescription` returns it. Bridged to `NSError`, the domain is
/// `UNErrorDomain` and the code is the raw value of ``Code``.
public struct UNError: Error, CustomNSError, LocalizedError, Hashable, Sendable {
    /// Apple's error codes. The raw values match Apple's `UNErrorCode`.
    public enum Code: Int, Sendable, BitwiseCopyable {
        /// The user, or the desktop, has not allowed notifications for this app.
        case notificationsNotAllowed = 1
        /// The attachment URL is not a file URL, or no readable file is there.
        case attachmentInvalidURL = 100
        /// The attachment is not an audio, image or movie type that notifications support.
        case attachmentUnrecognizedType = 101
        /// The attachment is empty or larger than its kind allows.
        case attachmentInvalidFileSize = 102
        /// The attachment is missing from the notification data store.
        case attachmentNotInDataStore = 103
        /// The attachment could not be copied into the notification data store.
        case attachmentMoveIntoDataStoreFailed = 104
        /// The attachment's bytes do not match its type.
        case attachmentCorrupt = 105
        /// The notification has no date on which it could fire.
        case notificationInvalidNoDate = 1400
        /// The notification has nothing to show.
        case notificationInvalidNoContent = 1401
        /// The object that should provide content is not allowed to.
        case contentProvidingObjectNotAllowed = 1500
        /// The object that should provide content is invalid.
        case contentProvidingInvalid = 1501
        /// The badge count is invalid.
        case badgeInputInvalid = 1600
    }

    /// What went wrong.
    public let code: Code

    // NSError is an immutable, Sendable carrier for an arbitrary user-info dictionary.
    private let storage: NSError

    /// Creates an error with a code and optional user info. Without `NSLocalizedDescriptionKey`
    /// the error describes its code in a standard sentence.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        var completeUserInfo = userInfo
        if completeUserInfo[NSLocalizedDescriptionKey] == nil {
            completeUserInfo[NSLocalizedDescriptionKey] = code.standardDescription
        }
        self.code = code
        storage = NSError(domain: UNErrorDomain, code: code.rawValue, userInfo: completeUserInfo)
    }

    /// Creates an error whose description names the specific cause.
    init(_ code: Code, description: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: description])
    }

    public static var errorDomain: String { UNErrorDomain }

    public var errorCode: Int { code.rawValue }

    public var errorUserInfo: [String: Any] { storage.userInfo }

    /// The user info of the error's `NSError`, as Apple's generated error struct offers it
    /// (the same dictionary as ``errorUserInfo``).
    public var userInfo: [String: Any] { storage.userInfo }

    public var errorDescription: String? { storage.userInfo[NSLocalizedDescriptionKey] as? String }

    public static func == (lhs: UNError, rhs: UNError) -> Bool {
        lhs.code == rhs.code && lhs.errorDescription == rhs.errorDescription
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(errorDescription)
    }
}

extension UNError.Code {
    /// Lets `catch UNError.attachmentCorrupt { … }` match a thrown `UNError` by its code.
    public static func ~= (code: UNError.Code, error: any Error) -> Bool {
        (error as? UNError)?.code == code
    }

    var standardDescription: String {
        switch self {
        case .notificationsNotAllowed: "Notifications are not allowed for this app."
        case .attachmentInvalidURL: "The attachment URL does not point to a readable file."
        case .attachmentUnrecognizedType: "The attachment is not a supported audio, image or movie type."
        case .attachmentInvalidFileSize: "The attachment file is empty or too large for its type."
        case .attachmentNotInDataStore: "The attachment is missing from the notification data store."
        case .attachmentMoveIntoDataStoreFailed: "The attachment could not be copied into the notification data store."
        case .attachmentCorrupt: "The attachment's content does not match its type."
        case .notificationInvalidNoDate: "The notification has no date on which it could fire."
        case .notificationInvalidNoContent: "The notification has no content to show."
        case .contentProvidingObjectNotAllowed: "The content-providing object is not allowed."
        case .contentProvidingInvalid: "The content-providing object is invalid."
        case .badgeInputInvalid: "The badge count is invalid."
        }
    }
}

// Apple's generated error struct offers every code as a static member of the error type, which
// is what makes `catch UNError.attachmentCorrupt` read naturally.
extension UNError {
    public static var notificationsNotAllowed: Code { .notificationsNotAllowed }
    public static var attachmentInvalidURL: Code { .attachmentInvalidURL }
    public static var attachmentUnrecognizedType: Code { .attachmentUnrecognizedType }
    public static var attachmentInvalidFileSize: Code { .attachmentInvalidFileSize }
    public static var attachmentNotInDataStore: Code { .attachmentNotInDataStore }
    public static var attachmentMoveIntoDataStoreFailed: Code { .attachmentMoveIntoDataStoreFailed }
    public static var attachmentCorrupt: Code { .attachmentCorrupt }
    public static var notificationInvalidNoDate: Code { .notificationInvalidNoDate }
    public static var notificationInvalidNoContent: Code { .notificationInvalidNoContent }
    public static var contentProvidingObjectNotAllowed: Code { .contentProvidingObjectNotAllowed }
    public static var contentProvidingInvalid: Code { .contentProvidingInvalid }
    public static var badgeInputInvalid: Code { .badgeInputInvalid }
}
