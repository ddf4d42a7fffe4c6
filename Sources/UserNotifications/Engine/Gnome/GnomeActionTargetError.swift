/// Why a `notification-response` target did not read as a GNOME engine response
/// (``GnomeActionTarget/decode(_:activationToken:)``): it comes from a bus peer.
package enum GnomeActionTargetError: Error, Sendable, Hashable {
    /// Longer than ``GnomeActionTarget/maximumBytes``; the length.
    case tooLong(Int)
    /// Not a response archive; why.
    case malformed(String)
}
