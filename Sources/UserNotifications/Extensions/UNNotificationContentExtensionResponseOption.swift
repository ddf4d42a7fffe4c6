/// What happens after a content extension has seen an action.
public enum UNNotificationContentExtensionResponseOption: UInt, Sendable, BitwiseCopyable {
    /// The notification stays on screen and the app's delegate is not told.
    case doNotDismiss = 0
    /// The notification is closed and the app's delegate is not told.
    case dismiss = 1
    /// The notification is closed and the action goes on to the app's delegate.
    case dismissAndForwardAction = 2
}
