/// What the location service last said, for the settings and for `add`.
package enum LocationServiceStatus: Sendable, Hashable {
    /// Nothing asked yet, or the last client started (or stopped) cleanly.
    case available
    /// GeoClue is absent: no owner and not activatable, or no system bus.
    case unavailable
    /// GeoClue refused the app.
    case denied
}
