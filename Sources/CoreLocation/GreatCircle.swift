import Foundation

/// Distances on the earth's surface, for ``CLLocation/distance(from:)`` and
/// ``CLCircularRegion/contains(_:)``.
package enum GreatCircle {
    /// The earth's mean radius (IUGG), in metres: the sphere the distances are measured on.
    package static let earthRadius: CLLocationDistance = 6_371_008.8

    /// The great-circle distance between two coordinates, in metres, by the haversine
    /// formula on a sphere of ``earthRadius``: within about 0.5 % of the ellipsoidal distance
    /// Apple reports. Not a number when either coordinate is not finite.
    package static func distance(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> CLLocationDistance {
        let radians = Double.pi / 180
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let deltaPhi = (b.latitude - a.latitude) * radians
        let deltaLambda = (b.longitude - a.longitude) * radians
        let sinPhi = sin(deltaPhi / 2)
        let sinLambda = sin(deltaLambda / 2)
        let h = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * earthRadius * asin(min(1, max(0, h).squareRoot()))
    }
}
