/// A coordinate from a latitude and a longitude, as Apple's function makes it (the values are
/// not checked). Part of this package's minimal `CoreLocation` subset.
public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}
