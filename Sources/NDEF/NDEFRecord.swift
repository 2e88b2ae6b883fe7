// NDEF: filled below
