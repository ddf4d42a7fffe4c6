/// How an app was launched.
package enum ApplicationLaunch: Sendable, Hashable {
    /// `org.freedesktop.Application.ActivateAction` was called on the app's bus name (which the
    /// bus starts when it is not running) and the app answered.
    case activated(busName: String)
    /// The entry's Exec was started as a detached process with this PID.
    case spawned(pid: Int32, arguments: [String])
}
