/// When the system shows a notification's body. Raw values are Apple's.
///
/// The freedesktop specification has no such setting; the Linux center reports `.always`.
public enum UNShowPreviewsSetting: Int, Sendable, BitwiseCopyable {
    /// Previews are always shown.
    case always = 0

    /// Previews are shown only while the device is unlocked.
    case whenAuthenticated = 1

    /// Previews are never shown.
    case never = 2
}
