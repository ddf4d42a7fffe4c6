/// GIO (`libgio-2.0.so.0`), loaded once for everything that reads through it: GNOME's per-app
/// notification switch (``GnomeNotificationSwitch``) and content-type sniffing for attachments
/// (``GIOContentType``). `nil` when GLib is not installed.
enum GIOLibrary {
    static let shared: DynamicLibrary? = DynamicLibrary.open("libgio-2.0.so.0")

    /// GLib's `g_free`, for strings GIO hands over.
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void}
