import APDU

/// A libnfc failure, keyed by its NFC_E* code (nfc.h), with a message and a hint.
public struct NFCError: CardTransportError, Equatable {
    /// libnfc's error codes (the `NFC_E*` constants of nfc.h, same values) and two of cardscan's.
    public enum Code: Int32, Sendable {
        /// `NFC_EIO`: input/output error; the device may be unusable until reopened.
        case io = -1
        /// `NFC_EINVARG`: invalid argument.
        case invalidArgument = -2
        /// `NFC_EDEVNOTSUPP`: operation not supported by the device.
        case deviceNotSupported = -3
        /// `NFC_ENOTSUCHDEV`: no such device.
        case noSuchDevice = -4
        /// `NFC_EOVFLOW`: buffer overflow.
        case overflow = -5
        /// `NFC_ETIMEOUT`: operation timed out.
        case timeout = -6
        /// `NFC_EOPABORTED`: operation aborted by the user.
        case aborted = -7
        /// `NFC_ENOTIMPL`: not (yet) implemented.
        case notImplemented = -8
        /// `NFC_ETGRELEASED`: target released.
        case targetReleased = -10
        /// `NFC_ERFTRANS`: error during RF transmission.
        case rfTransmission = -20
        /// `NFC_EMFCAUTHFAIL`: MIFARE Classic authentication failed.
        case mifareAuthFailed = -30
        /// `NFC_ESOFT`: software error (allocation, file or pipe creation, …).
        case software = -80
        /// `NFC_ECHIP`: the device's internal chip error.
        case chip = -90
        /// Not a libnfc code: no device could be opened at all.
        case noDevice = -1000
        /// Not a libnfc code: polling found no card in the field.
        case noTarget = -1001

        /// The name nfc.h gives the code (`NFC_EIO`), as transcripts record it; cardscan's own
        /// two are `CARDSCAN_NO_DEVICE` and `CARDSCAN_NO_TARGET`.
        public var constantName: String {
            switch self {
            case .io: return "NFC_EIO"
            case .invalidArgument: return "NFC_EINVARG"
            case .deviceNotSupported: return "NFC_EDEVNOTSUPP"
            case .noSuchDevice: return "NFC_ENOTSUCHDEV"
            case .overflow: return "NFC_EOVFLOW"
            case .timeout: return "NFC_ETIMEOUT"
            case .aborted: return "NFC_EOPABORTED"
            case .notImplemented: return "NFC_ENOTIMPL"
            case .targetReleased: return "NFC_ETGRELEASED"
            case .rfTransmission: return "NFC_ERFTRANS"
            case .mifareAuthFailed: return "NFC_EMFCAUTHFAIL"
            case .software: return "NFC_ESOFT"
            case .chip: return "NFC_ECHIP"
            case .noDevice: return "CARDSCAN_NO_DEVICE"
            case .noTarget: return "CARDSCAN_NO_TARGET"
            }
        }
    }

    /// Which failure it is.
    public let code: Code
    /// The function that failed: `nfc_open`, `nfc_initiator_transceive_bytes`, ….
    public let function: String
    /// The device's name, when the error gives it.
    public let device: String?
    /// libnfc's description (`nfc_strerror`) or cardscan's, when there is one.
    public let detail: String?

    /// An error from its parts.
    public init(code: Code, function: String, device: String? = nil, detail: String? = nil) {
        self.code = code
        self.function = function
        self.device = device
        self.detail = detail
    }

    /// As a transcript records it: target released, RF error and no card are `removed`, a
    /// time-out is `timeout`, any other code `NFC_E` followed by its case name (`NFC_Eoverflow`).
    public var failure: TransportFailure {
        switch code {
        case .targetReleased, .rfTransmission, .noTarget: return .removed
        case .timeout: return .timeout
        default: return .other(code.constantName)
        }
    }

    public var message: String {
        let on = device.map { " on \($0)" } ?? ""
        switch code {
        case .noDevice: return "no libnfc device could be opened\(detail.map { " (\($0))" } ?? "")"
        case .noTarget: return "no card in the field\(on)"
        case .timeout: return "the card did not answer in time\(on)"
        case .targetReleased, .rfTransmission: return "the card left the field\(on) (\(function))"
        case .io: return "the reader\(on) stopped answering (\(function): I/O error)"
        default: return "\(function) failed\(on): \(detail ?? "\(code)")"
        }
    }

    public var hint: String? {
        switch code {
        case .noDevice:
            return
                "name the device (a connection string, or LIBNFC_DEVICE: e.g. pn532_uart:/dev/ttyUSB0, acr122_usb); an ACR122U is often held by pcscd (stop it, or read it through PC/SC instead) or by the kernel's pn533 driver (rmmod pn533_usb pn533 nfc)"
        case .noTarget, .targetReleased, .rfTransmission: return "hold the card flat on the reader until the read completes"
        case .timeout: return "hold the card still; a card that never answers may need to be presented again"
        case .io: return "check the cable and the serial port; is another program using the device?"
        default: return nil
        }
    }
}
