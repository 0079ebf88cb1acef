# BakuMat on ESP32-S3-DevKitC-1 N8R8 (8 MB flash, 8 MB octal PSRAM), lis2 mat.
# Same IDF configuration as MicroPython's ESP32_GENERIC_S3 SPIRAM_OCT variant,
# plus the frozen app.
set(IDF_TARGET esp32s3)

set(SDKCONFIG_DEFAULTS
    boards/sdkconfig.base
    ${SDKCONFIG_IDF_VERSION_SPECIFIC}
    boards/sdkconfig.usb
    boards/sdkconfig.ble
    boards/sdkconfig.spiram_sx
    boards/sdkconfig.240mhz
    boards/sdkconfig.spiram_oct
    ${MICROPY_BOARD_DIR}/sdkconfig.board
)

set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
