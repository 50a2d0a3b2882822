# A JACK client (ctypes over the libjack it finds: PipeWire's under pw-jack) that connects an
# output to PORT (or none), then prints the transport state it sees every half second, COUNT
# times: "state N" (0 stopped, 1 rolling, 3 starting). On PipeWire each driver has its own
# transport: a client sees the one of the driver its ports joined.
#   pw-jack python3 jack-transport-state.py PORT|none COUNT
import ctypes, sys, time

jack = ctypes.CDLL("libjack.so.0")
jack.jack_client_open.restype = ctypes.c_void_p
jack.jack_client_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p]
jack.jack_port_register.restype = ctypes.c_void_p
jack.jack_port_register.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_ulong]
jack.jack_activate.argtypes = [ctypes.c_void_p]
jack.jack_port_name.restype = ctypes.c_char_p
jack.jack_port_name.argtypes = [ctypes.c_void_p]
jack.jack_connect.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
jack.jack_transport_query.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
jack.jack_client_close.argtypes = [ctypes.c_void_p]

client = jack.jack_client_open(b"transport-state", 1, None)  # JackNoStartServer
if not client:
    print("no JACK server")
    sys.exit(1)
port = jack.jack_port_register(client, b"out", b"32 bit float mono audio", 2, 0)  # JackPortIsOutput
jack.jack_activate(client)
if sys.argv[1] != "none":
    print("connect", jack.jack_connect(client, jack.jack_port_name(port), sys.argv[1].encode()), flush=True)
    time.sleep(0.3)
position = ctypes.create_string_buffer(1024)  # jack_position_t, larger than it is
for _ in range(int(sys.argv[2])):
    time.sleep(0.5)
    print("state", jack.jack_transport_query(client, position), flush=True)
jack.jack_client_close(client)
