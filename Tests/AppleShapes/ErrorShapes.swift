// `UNError` read as Apple's generated error struct offers it.
import Foundation
import UserNotifications

/// The user info of a `UNError`, read as Apple's generated error struct offers it.
public func errorUserInfo(_ error: UNError) -> [String: Any] {
    error.userInfo
}
