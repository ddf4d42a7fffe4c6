/// The shape of an app id, as GLib's `g_application_id_is_valid` and the D-Bus spec's
/// well-known names have it: at most 255 bytes, two or more dot-separated elements, each of
/// `A-Za-z0-9_-` and not starting with a digit.
package enum ApplicationID {
    /// Whether `id` has that shape.
    package static func isValid(_ id: String) -> Bool {
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard id.utf8.count <= 255, elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return element.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
            }
        }
    }
}
