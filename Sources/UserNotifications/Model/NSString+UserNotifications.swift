extension NSString {
    /// Looks `key` up in the app's `Localizable.strings` and fills in `arguments`, deferring the
    /// lookup to the notification's delivery.
    ///
    /// Apple returns a string object that is localized only when the notification is shown. A
    /// Swift `String` cannot carry that, so on Linux the text is looked up now, in `Bundle.main`,
    /// and remembered with its key and arguments (the last 1024 such texts, process-wide). When
    /// the text becomes a content's `title`, `subtitle` or `body`, the center looks the key up
    /// again as it delivers the notification, and a pending request keeps the key and arguments
    /// in the center's store, so a notification that fires after a restart uses the
    /// translations and language of the process that delivers it. Differences from Apple:
    /// - The text is checked for being one returned here when it is assigned to the content: a
    ///   text built from it (`text + "!"`) is plain text, and a plain text that happens to equal
    ///   a returned one counts as that lookup.
    /// - Linux processes keep their language, and Foundation keeps a bundle's strings once read,
    ///   for their lifetime; in practice a change shows after a restart.
    ///
    /// A key with no translation is used as the text itself. With `nil` or no arguments the text
    /// is returned as found; otherwise each directive gets its argument in the form it asks for:
    /// `%@` its text (so Apple's `%@` for numbers works), `%d` and the other integer directives
    /// an integer, `%f` and the other floating-point directives a `Double`, and positional
    /// directives (`%2$@`) their argument. A directive without an argument gets an empty or zero
    /// value instead of crashing.
    public class func localizedUserNotificationString(forKey key: String, arguments: [Any]?) -> String {
        LocalizedUserNotificationString.make(forKey: key, arguments: arguments, bundle: Bundle.main)
    }
}

extension String {
    /// The same as `NSString.localizedUserNotificationString(forKey:arguments:)`, deferred in
    /// the same way. **Linux addition**: blog posts from 2016 call it on `String`, and this keeps
    /// that code compiling.
    public static func localizedUserNotificationString(forKey key: String, arguments: [Any]?) -> String {
        LocalizedUserNotificationString.make(forKey: key, arguments: arguments, bundle: Bundle.main)
    }
}

/// The lookup behind both spellings, with the strings' source injectable for tests.
enum LocalizedUserNotificationString {
    static func make(forKey key: String, arguments: [Any]?, bundle: any LocalizedStringSource) -> String {
        let localization = DeferredLocalization(key: key, arguments: arguments, source: bundle)
        let text = localization.resolve()
        DeferredLocalizationTable.shared.remember(text, from: localization)
        return text
    }
}
