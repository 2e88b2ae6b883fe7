import APDU

/// A libnfc failure, keyed by its NFC_E* code (nfc.h), with a message and a hint.
public struct NFCError: CardTransportError, Equatable {
    public enum Code: Int32, Sendable {
        case io = -1, invalidArgument = -2, deviceNotSupported = -3, noSuchDevice = -4, overflow = -5
        case timeout = -6, aborted = -7, notImplemented = -8, targetReleased = -10, rfTransmission = -20
        case mifareAuthFailed = -30, software = -80, chip = -90
        /// Not a libnfc code: no device could be opened at all.
        case noDevice = -1000
        /// Not a libnfc code: polling found no card in the field.
        case noTarget = -1001
    }

    public let code: Code
    public let function: String
    public let device: String?
    public let detail: String?

    public init(code: Code, function: String, device: String? = nil, detail: String? = nil) {
        self.code = code
        self.function = function
        self.device = device
        self.detail = detail
    }

    public var failure: TransportFailure {
        switch code {
        case .targetReleased, .rfTransmission, .noTarget: return .removed
        case .timeout: return .timeout
        default: return .other("NFC_E\(code)")
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
