// BakuMat on ESP32-S3-DevKitC-1 N8R8 (octal PSRAM: GPIO 33-37 are not free), lis2 mat (SPI magnetometers).
#define MICROPY_HW_BOARD_NAME "BakuMat ESP32-S3-DevKitC-1 lis2"
#define MICROPY_HW_MCU_NAME "ESP32S3"

#define MICROPY_PY_MACHINE_DAC (0)

// The DevKitC-1 has both native USB and a USB-UART bridge: keep the REPL on
// both (the bridge is the safer one for the raw sensor stream).
#define MICROPY_HW_ENABLE_UART_REPL (1)
