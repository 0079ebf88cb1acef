"""The firmware version the app reports (`version.fw`); bakumat deploy
checks it after a restart."""
FW = "0.1.0"
