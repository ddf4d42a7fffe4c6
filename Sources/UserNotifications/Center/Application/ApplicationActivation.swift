/// What came with an activation of the app through `org.freedesktop.Application`: the
/// `platform_data` a desktop sends with `Activate` and `Open`. A Linux addition; Apple
/// launches and activates apps through the app delegate.
public struct ApplicationActivation: Sendable, Hashable {
    /// The XDG activation token (`activation-token`, else `desktop-startup-id` in
    /// `platform_data`), which lets the app raise its window under Wayland and X11 focus
    /// rules; `nil` when none came.
    public var activationToken: String?

    /// Creates an activation.
    public init(activationToken: String? = nil) {
        self.activationToken = activationToken
    }
}
