/// Whether `coord` is a valid coordinate: finite, latitude within -90...90 and longitude
/// within -180...180, as Apple's function decides. Part of this package's minimal
/// `CoreLocation` subset.
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
    coord.latitude.isFinite && coord.longitude.isFinite
        && (-90...90).contains(coord.latitude) && (-180...180).contains(coord.longitude)
}
