/// An object that can add information to a notification's content, see
/// ``UNNotificationContent/updating(from:)``.
///
/// On Apple platforms SiriKit's message and call intents adopt it. Linux has no SiriKit, and
/// content refuses every provider; the protocol exists so that code written for Apple compiles.
public protocol UNNotificationContentProviding: NSObjectProtocol {}
