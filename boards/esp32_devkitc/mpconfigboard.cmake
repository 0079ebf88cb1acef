# BakuMat on ESP32-DevKitC V4 (ESP32-WROOM-32E, 4 MB flash, no PSRAM).
# Same IDF configuration as MicroPython's ESP32_GENERIC, plus the frozen app.
set(IDF_TARGET esp32)

set(SDKCONFIG_DEFAULTS
    boards/sdkconfig.base
    ${SDKCONFIG_IDF_VERSION_SPECIFIC}
    boards/sdkconfig.ble
)

set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
