import APDU

/// One node of a system's tree of areas and services, as Search Service Code (command 0A)
/// lists them in index order: an area (its code, whose bits 15-6 are the first service
/// number it holds, and the end of its range) or a service.
///
/// Search Service Code is not in JIS X 6319-4; the layout here is the one nfcpy
/// (`tt3.py`, `search_service_code`) and Metrodroid (`FelicaProtocol.kt`) use: two bytes
/// little-endian for a service, four (area code, end code) for an area, `FF FF` after the
/// last node. See docs/felica.md.
public enum FeliCaNode: Hashable, Sendable, CustomStringConvertible {
    /// An area: its code (bits 15-6: the first service number it holds) and its end code
    /// (bits 15-6: the last).
    case area(code: UInt16, end: UInt16)
    /// A service, by its service code.
    case service(ServiceCode)

    /// The service numbers an area spans (bits 15-6 of its code and of its end).
    public static func areaNumbers(code: UInt16, end: UInt16) -> ClosedRange<UInt16> {
        (code >> 6)...max(code >> 6, end >> 6)
    }

    /// `Area 0040h-07FFh` or `Service Code 008Bh (Random RO w/o key)`.
    public var description: String {
        switch self {
        case .area(let code, let end): return "Area \(Hex.format(code))h-\(Hex.format(end))h"
        case .service(let s): return s.description
        }
    }

    /// The bytes after the IDm in a Search Service Code response.
    public var packed: [UInt8] {
        switch self {
        case .area(let code, let end): return [UInt8(code & 0xFF), UInt8(code >> 8), UInt8(end & 0xFF), UInt8(end >> 8)]
        case .service(let s): return s.packed
        }
    }
}
