/// A desktop entry and the file it was read from.
package struct LocatedDesktopEntry: Sendable, Hashable {
    /// The entry's path, which is also what `%k` expands to.
    package let path: String
    /// The parsed entry.
    package let entry: DesktopEntry
}
