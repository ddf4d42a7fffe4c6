extension NSString {
    /// Looks `key` up in the app's `Localizable.strings` and fills in `arguments`.
    ///
    /// Apple defers the lookup until the notification is shown, so the text follows the language
    /// the device has then. On Linux the lookup happens now, in `Bundle.main`'s preferred
    /// localization. A key with no translation is used as the text itself. With `nil` or no
    /// arguments the text is returned as found; otherwise it is formatted like `String(format:)`,
    /// so the format must match the arguments.
    public class func localizedUserNotificationString(forKey key: String, arguments: [Any]?) -> String {
        LocalizedUserNotificationString.make(forKey: key, arguments: arguments, bundle: .main)
    }
}

extension String {
    /// The same as `NSString.localizedUserNotificationString(forKey:arguments:)`. **Linux
    /// addition**: blog posts from 2016 call it on `String`, and this keeps that code compiling.
    public static func localizedUserNotificationString(forKey key: String, arguments: [Any]?) -> String {
        LocalizedUserNotificationString.make(forKey: key, arguments: arguments, bundle: .main)
    }
}

/// The lookup behind both spellings, with the bundle injectable for tests.
enum LocalizedUserNotificationString {
    static func make(forKey key: String, arguments: [Any]?, bundle: Bundle) -> String {
        let format = bundle.localizedString(forKey: key, value: nil, table: nil)
        guard let arguments, !arguments.isEmpty else { return format }
        let formatArguments: [any CVarArg] = arguments.map { ($0 as? any CVarArg) ?? String(describing: $0) }
        return String(format: format, arguments: formatArguments)
    }
}
