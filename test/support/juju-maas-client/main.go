// Drives a MAAS API exactly as Juju's MAAS provider does, through Juju's own client
// library (gomaasapi): every invocation connects anew (GET version/, GET users/?op=whoami),
// runs one command and prints its outcome as one JSON line, so a test can tell a story
// step by step. Exit status 0 even when MAAS refused: the refusal is the outcome.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/juju/gomaasapi"
)

type outcome struct {
	OK         bool              `json:"ok"`
	Error      string            `json:"error,omitempty"`
	Kind       string            `json:"kind,omitempty"`
	StatusCode int               `json:"statusCode,omitempty"`
	Machines   []machineOut      `json:"machines,omitempty"`
	Devices    []deviceOut       `json:"devices,omitempty"`
	Values     map[string]string `json:"values,omitempty"`
}

type machineOut struct {
	SystemID   string            `json:"systemId"`
	Hostname   string            `json:"hostname"`
	StatusName string            `json:"statusName"`
	OwnerData  map[string]string `json:"ownerData"`
	Interfaces []string          `json:"interfaces"`
}

type deviceOut struct {
	SystemID   string   `json:"systemId"`
	Hostname   string   `json:"hostname"`
	Parent     string   `json:"parent"`
	Interfaces []string `json:"interfaces"`
}

func machineOf(m gomaasapi.Machine) machineOut {
	var names []string
	for _, iface := range m.InterfaceSet() {
		names = append(names, iface.Name()+"="+iface.MACAddress())
	}
	return machineOut{SystemID: m.SystemID(), Hostname: m.Hostname(), StatusName: m.StatusName(), OwnerData: m.OwnerData(), Interfaces: names}
}

func deviceOf(d gomaasapi.Device) deviceOut {
	var names []string
	for _, iface := range d.InterfaceSet() {
		entry := iface.Name() + "=" + iface.MACAddress()
		for _, link := range iface.Links() {
			if link.Subnet() != nil {
				entry += "@" + link.Subnet().CIDR()
			}
		}
		names = append(names, entry)
	}
	return deviceOut{SystemID: d.SystemID(), Hostname: d.Hostname(), Parent: d.Parent(), Interfaces: names}
}

// kindOf names the gomaasapi error class Juju's provider branches on.
func kindOf(err error) string {
	switch {
	case gomaasapi.IsNoMatchError(err):
		return "no_match"
	case gomaasapi.IsBadRequestError(err):
		return "bad_request"
	case gomaasapi.IsPermissionError(err):
		return "permission"
	case gomaasapi.IsCannotCompleteError(err):
		return "cannot_complete"
	case gomaasapi.IsUnexpectedError(err):
		return "unexpected"
	case gomaasapi.IsDeserializationError(err):
		return "deserialization"
	}
	return "other"
}

func fail(err error) outcome {
	out := outcome{OK: false, Error: err.Error(), Kind: kindOf(err)}
	if serverErr, ok := gomaasapi.GetServerError(err); ok {
		out.StatusCode = serverErr.StatusCode
	}
	return out
}

// flags parses key=value arguments; a key given twice keeps every value.
func flags(args []string) map[string][]string {
	values := map[string][]string{}
	for _, arg := range args {
		if i := strings.Index(arg, "="); i > 0 {
			values[arg[:i]] = append(values[arg[:i]], arg[i+1:])
		}
	}
	return values
}

func first(values map[string][]string, key string) string {
	if v := values[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func number(values map[string][]string, key string) int {
	n, _ := strconv.Atoi(first(values, key))
	return n
}

func machineByID(controller gomaasapi.Controller, agentName, id string) (gomaasapi.Machine, error) {
	machines, err := controller.Machines(gomaasapi.MachinesArgs{AgentName: agentName, SystemIDs: []string{id}})
	if err != nil {
		return nil, err
	}
	if len(machines) != 1 {
		return nil, fmt.Errorf("instance %q not found", id)
	}
	return machines[0], nil
}

// subnetWithCIDR finds a subnet through the spaces, as Juju's provider does; nil for an empty CIDR.
func subnetWithCIDR(controller gomaasapi.Controller, cidr string) (gomaasapi.Subnet, error) {
	if cidr == "" {
		return nil, nil
	}
	spaces, err := controller.Spaces()
	if err != nil {
		return nil, err
	}
	for _, space := range spaces {
		for _, subnet := range space.Subnets() {
			if subnet.CIDR() == cidr {
				return subnet, nil
			}
		}
	}
	return nil, fmt.Errorf("no subnet %s", cidr)
}

func run(controller gomaasapi.Controller, command string, args map[string][]string) outcome {
	agentName := first(args, "agent_name")
	switch command {
	case "connect":
		version, subversion, err := controller.APIVersionInfo()
		if err != nil {
			return fail(err)
		}
		return outcome{OK: true, Values: map[string]string{"version": version, "subversion": subversion}}
	case "allocate":
		machine, _, err := controller.AllocateMachine(gomaasapi.AllocateMachineArgs{
			Hostname: first(args, "name"), SystemId: first(args, "system_id"), Architecture: first(args, "arch"),
			MinCPUCount: number(args, "cpu_count"), MinMemory: number(args, "mem"), Tags: args["tags"], NotTags: args["not_tags"],
			Zone: first(args, "zone"), Pool: first(args, "pool"), AgentName: agentName,
		})
		if err != nil {
			return fail(err)
		}
		return outcome{OK: true, Machines: []machineOut{machineOf(machine)}}
	case "list":
		machines, err := controller.Machines(gomaasapi.MachinesArgs{AgentName: agentName, SystemIDs: args["id"]})
		if err != nil {
			return fail(err)
		}
		out := outcome{OK: true, Machines: []machineOut{}}
		for _, m := range machines {
			out.Machines = append(out.Machines, machineOf(m))
		}
		return out
	case "deploy":
		machine, err := machineByID(controller, agentName, first(args, "id"))
		if err != nil {
			return fail(err)
		}
		if err := machine.Start(gomaasapi.StartArgs{UserData: "I2Nsb3VkLWNvbmZpZw==", DistroSeries: "jammy"}); err != nil {
			return fail(err)
		}
		return outcome{OK: true, Machines: []machineOut{machineOf(machine)}}
	case "set-owner-data":
		machine, err := machineByID(controller, agentName, first(args, "id"))
		if err != nil {
			return fail(err)
		}
		if err := machine.SetOwnerData(map[string]string{"juju-model-uuid": agentName, "juju-machine-id": first(args, "machine")}); err != nil {
			return fail(err)
		}
		return outcome{OK: true, Machines: []machineOut{machineOf(machine)}}
	case "hold-then-set-owner-data":
		// What a controller does with a machine it read a while ago: it still holds the
		// gomaasapi Machine (and its resource URI) when it sets owner data later. The
		// program reads the machine, prints that it holds it, and waits for a line on stdin.
		machine, err := machineByID(controller, agentName, first(args, "id"))
		if err != nil {
			return fail(err)
		}
		held, _ := json.Marshal(outcome{OK: true, Values: map[string]string{"held": machine.SystemID()}})
		fmt.Println(string(held))
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return outcome{OK: false, Error: "no go-ahead on stdin: " + err.Error(), Kind: "usage"}
		}
		if err := machine.SetOwnerData(map[string]string{"juju-model-uuid": agentName, "juju-machine-id": first(args, "machine")}); err != nil {
			return fail(err)
		}
		return outcome{OK: true, Machines: []machineOut{machineOf(machine)}}
	case "release":
		// What Juju's StopInstances does: one call for every id, 409 and 400 both counting as released.
		err := controller.ReleaseMachines(gomaasapi.ReleaseMachinesArgs{SystemIDs: args["id"], Comment: "Released by Juju MAAS provider"})
		if err == nil {
			return outcome{OK: true, Values: map[string]string{"juju": "released"}}
		}
		out := fail(err)
		if gomaasapi.IsCannotCompleteError(err) || gomaasapi.IsBadRequestError(err) {
			out.Values = map[string]string{"juju": "released"}
		} else if gomaasapi.IsPermissionError(err) {
			out.Values = map[string]string{"juju": "credential-invalidated"}
		}
		return out
	case "create-device":
		// What Juju does for a LXD container: a device under the machine, its NIC renamed.
		machine, err := machineByID(controller, agentName, first(args, "id"))
		if err != nil {
			return fail(err)
		}
		subnet, err := subnetWithCIDR(controller, first(args, "subnet"))
		if err != nil {
			return fail(err)
		}
		device, err := machine.CreateDevice(gomaasapi.CreateMachineDeviceArgs{Hostname: first(args, "hostname"), InterfaceName: "eth0", MACAddress: first(args, "mac"), Subnet: subnet})
		if err != nil {
			return fail(err)
		}
		if second := first(args, "second_mac"); second != "" {
			// A second NIC, as Juju adds for a container in two spaces: POST .../interfaces/?op=create_physical.
			if _, err := device.CreateInterface(gomaasapi.CreateInterfaceArgs{Name: "eth1", MACAddress: second, VLAN: subnet.VLAN()}); err != nil {
				return fail(err)
			}
			devices, err := machine.Devices(gomaasapi.DevicesArgs{})
			if err != nil {
				return fail(err)
			}
			for _, d := range devices {
				if d.SystemID() == device.SystemID() {
					device = d
				}
			}
		}
		return outcome{OK: true, Devices: []deviceOut{deviceOf(device)}}
	case "devices":
		machine, err := machineByID(controller, agentName, first(args, "id"))
		if err != nil {
			return fail(err)
		}
		devices, err := machine.Devices(gomaasapi.DevicesArgs{})
		if err != nil {
			return fail(err)
		}
		out := outcome{OK: true, Devices: []deviceOut{}}
		for _, d := range devices {
			out.Devices = append(out.Devices, deviceOf(d))
		}
		return out
	case "delete-device":
		machine, err := machineByID(controller, agentName, first(args, "id"))
		if err != nil {
			return fail(err)
		}
		devices, err := machine.Devices(gomaasapi.DevicesArgs{})
		if err != nil {
			return fail(err)
		}
		for _, d := range devices {
			if d.SystemID() == first(args, "device") {
				if err := d.Delete(); err != nil {
					return fail(err)
				}
				return outcome{OK: true}
			}
		}
		return outcome{OK: false, Error: "no such device under the machine", Kind: "not_found"}
	}
	return outcome{OK: false, Error: "unknown command " + command, Kind: "usage"}
}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: juju-maas-client MAAS_URL API_KEY COMMAND [key=value ...]")
		os.Exit(2)
	}
	var out outcome
	controller, err := gomaasapi.NewController(gomaasapi.ControllerArgs{BaseURL: os.Args[1], APIKey: os.Args[2]})
	if err != nil {
		out = fail(err)
	} else {
		out = run(controller, os.Args[3], flags(os.Args[4:]))
	}
	encoded, _ := json.Marshal(out)
	fmt.Println(string(encoded))
}
