import Foundation

/// Where a deferred text is looked up: a `Bundle` (always the main bundle through the public
/// API). Tests give their own source, whose strings they change while the process runs, which
/// a Foundation bundle on Linux does not show once it has read them.
protocol LocalizedStringSource: AnyObject, Sendable {
    func localizedString(forKey key: String, value: String?, table tableName: String?) -> String
}

extension Bundle: LocalizedStringSource {}
